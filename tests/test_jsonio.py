"""The JSON form of records: lossless both ways with the text form, errors with JSON paths."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings

from tests.record_strategies import games
from zfrec.engine.cards import BJ, Stand, parse_cards, parse_play
from zfrec.errors import NotationError
from zfrec.record import dumps, iter_records, load, loads
from zfrec.record.jsonio import dumps_json, game_from_json, game_to_json, iter_json_text
from zfrec.record.model import Game, Hand, Move, Trick

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(games())
def test_json_round_trip_is_lossless(game: Game) -> None:
    data = game_to_json(game)
    assert game_from_json(data) == game
    assert game_from_json(json.loads(json.dumps(data))) == game


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(games())
def test_text_to_json_to_text_is_identical(game: Game) -> None:
    text = dumps(game)
    [from_text] = loads(text)
    json_text = dumps(from_text, "json")
    assert loads(json_text, "json") == [from_text]
    assert dumps(loads(json_text, "json")) == text
    assert dumps(loads(json_text, "json"), "json") == dumps_json([from_text])


def small_game() -> Game:
    return Game(
        players=["Ann", "Bo Li", "王芳"],
        hands=[
            Hand(
                1,
                tricks=[
                    Trick(
                        [
                            Move.plays(0, parse_cards("8s 8h BJ"), ((BJ, Stand(5, 1)),)),
                            Move.passes(1, annotation="?!", comments=["hm"]),
                            Move.plays(2, parse_cards("Ts Th Td"), disputed=True),
                        ]
                    )
                ],
            )
        ],
    )


def test_json_shape() -> None:
    assert game_to_json(small_game()) == {
        "players": ["Ann", "Bo Li", "王芳"],
        "rules": {"preset": "pagat"},
        "target": 500,
        "hands": [
            {
                "number": 1,
                "tricks": [
                    {
                        "moves": [
                            {"seat": 1, "play": "8s 8h BJ=8h"},
                            {"seat": 2, "play": "pass", "annotation": "?!", "comments": ["hm"]},
                            {"seat": 3, "play": "Ts Th Td", "disputed": True},
                        ]
                    }
                ],
            }
        ],
    }


def test_canonical_json_text() -> None:
    assert dumps_json(small_game()) == (
        "{\n"
        '  "players": ["Ann", "Bo Li", "王芳"],\n'
        '  "rules": {"preset": "pagat"},\n'
        '  "target": 500,\n'
        '  "hands": [\n'
        "    {\n"
        '      "number": 1,\n'
        '      "tricks": [\n'
        "        {\n"
        '          "moves": [\n'
        '            {"seat": 1, "play": "8s 8h BJ=8h"},\n'
        '            {"seat": 2, "play": "pass", "annotation": "?!", "comments": ["hm"]},\n'
        '            {"seat": 3, "play": "Ts Th Td", "disputed": true}\n'
        "          ]\n"
        "        }\n"
        "      ]\n"
        "    }\n"
        "  ]\n"
        "}\n"
    )
    assert dumps([small_game(), small_game()], "json").startswith('{\n  "games": [\n    {\n')


def test_json_accepts_loose_card_text() -> None:
    data = game_to_json(small_game())
    data["hands"][0]["tricks"][0]["moves"][0]["play"] = "bj=8H,8s 8♥"
    assert game_from_json(data) == small_game()


def test_format_md_json_example_loads() -> None:
    [text] = re.findall(r"```json\n(.*?)```", (ROOT / "FORMAT.md").read_text("utf-8"), re.S)
    [game] = loads(text, "json")
    assert game.preset == "poppel" and game.options == {"self_overplay": False}
    assert game.hands[0].tricks[1].moves[0].dispute_note == "out of turn?"


def bad(edit: str, value: Any) -> str:
    data = game_to_json(small_game())
    target: Any = data
    *path, last = edit.strip("/").split("/")
    for key in path:
        target = target[int(key) if key.isdecimal() else key]
    target[int(last) if last.isdecimal() else last] = value
    with pytest.raises(NotationError) as info:
        game_from_json(data, "g.json")
    return str(info.value)


@pytest.mark.parametrize(
    ("edit", "value", "message"),
    [
        (
            "/hands/0/tricks/0/moves/1/seat",
            4,
            "g.json: at /hands/0/tricks/0/moves/1/seat: there is no seat 4: seats are 1 to 3",
        ),
        (
            "/hands/0/tricks/0/moves/0/play",
            "7h 7h",
            "g.json: at /hands/0/tricks/0/moves/0/play: card 7h is given twice",
        ),
        (
            "/hands/0/tricks/0/moves/0/play",
            "7h=8",
            "g.json: at /hands/0/tricks/0/moves/0/play: '7h=8' does not match "
            + "'^(?:pass|(?:(?:10|[2-9TJQKAtjqka])",
        ),
        (
            "/hands/0/tricks/0/moves/1/annotation",
            "!!!",
            "g.json: at /hands/0/tricks/0/moves/1/annotation: '!!!' is not one of "
            "['!', '?', '!!', '??', '!?', '?!']",
        ),
        (
            "/hands/0/tricks/0/moves/1/dispute_note",
            "why",
            "g.json: at /hands/0/tricks/0/moves/1: a dispute note needs the disputed marker",
        ),
        ("/players/2", "Ann", "g.json: at /players: player name 'Ann' is given twice"),
        ("/players/2", "7", "g.json: at /players/2: '7' does not match"),
        ("/hands/0/colour", "red", "g.json: at /hands/0: Additional properties are not allowed"),
        ("/target", 0, "g.json: at /target: 0 is less than the minimum of 1"),
        ("/comments", ["a", " b"], "g.json: at /comments/1: ' b' does not match"),
        (
            "/hands/0/deal",
            [{"cards": ""}],
            "g.json: at /hands/0/deal: needs one entry per seat (3)",
        ),
        (
            "/extra_tags",
            [{"name": "event", "value": "x"}],
            "g.json: at /extra_tags/0/name: event is a standard tag, not a free-form one",
        ),
        (
            "/result",
            {"scores": [1, 2]},
            "g.json: at /result/scores: needs 3 numbers, one per seat, not 2",
        ),
    ],
)
def test_error_messages_name_the_json_path(edit: str, value: Any, message: str) -> None:
    assert bad(edit, value).startswith(message)


def test_syntax_error_has_line_column_and_caret() -> None:
    [error] = list(iter_json_text('{\n  "players": ["a", "b", "c"],\n  "rules": {,\n}', "g.json"))
    assert str(error) == (
        "g.json:3:13: invalid JSON: Expecting property name enclosed in double quotes\n"
        ' 3 |   "rules": {,\n'
        "   |             ^"
    )


def test_games_wrapper_recovers_per_game(tmp_path: Path) -> None:
    good = game_to_json(small_game())
    broken = copy.deepcopy(good)
    broken["players"] = ["a", "b"]
    path = tmp_path / "several.json"
    path.write_text(json.dumps({"games": [good, broken, good]}), encoding="utf-8")
    items = list(iter_records(path))
    assert items[0] == small_game() and items[2] == small_game()
    assert str(items[1]).startswith(f"{path}: at /games/1/players: ['a', 'b'] is too short")
    with pytest.raises(NotationError):
        list(load(path))


def test_single_object_file_and_bom(tmp_path: Path) -> None:
    path = tmp_path / "one.JSON"
    path.write_text("\ufeff" + dumps_json(small_game()), encoding="utf-8")
    [game] = load(path)
    assert game == small_game() and game.source == str(path)


def test_top_level_must_be_a_game_or_games() -> None:
    with pytest.raises(NotationError, match=r"^<input>: at /: \[1\] is not of type 'object'"):
        loads("[1]", "json")
    with pytest.raises(NotationError, match="at /: Additional properties are not allowed"):
        loads('{"games": [], "more": 1}', "json")


# Every spelling of the card notation (FORMAT.md, Cards), read by the one card parser.
SPELLINGS = ["7h7s", "7h,7s", "7h, 7s", "10♥ 9♡", "10♥\ufe0f9♥\ufe0f", "bj=8 8s8h", "SJ=10 9sJs"]


@pytest.mark.parametrize("spelling", SPELLINGS)
def test_json_reads_every_spelling_the_text_form_reads(spelling: str) -> None:
    data = game_to_json(small_game())
    data["hands"][0]["tricks"][0]["moves"][0]["play"] = spelling
    move = game_from_json(data).hands[0].tricks[0].moves[0]
    [text_game] = loads('[Players "a, b, c"]\nhand 1\n1: ' + spelling + "\n")
    text_move = text_game.hands[0].tricks[0].moves[0]
    expected = parse_play(spelling)
    assert (move.cards, move.declarations) == (text_move.cards, text_move.declarations)
    assert (move.cards, move.declarations) == (expected.mask, expected.declarations)


def test_json_deal_cards_read_glued_and_with_symbols() -> None:
    data = game_to_json(small_game())
    data["hands"][0]["deal"] = [{"cards": "7h7s,8♠"}, {"cards": "", "unknown": 3}, {"cards": "BJ"}]
    deal = game_from_json(data).hands[0].deal
    assert deal is not None
    assert [str(d.known) for d in deal] == ["7s 7h 8s", "", "BJ"]
