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
from zfrec.errors import NotationError
from zfrec.games.zhengfen.engine.cards import BJ, Stand, parse_cards, parse_play
from zfrec.record import dumps, iter_records, load, loads
from zfrec.record.jsonio import dumps_json, game_from_json, game_to_json, iter_json_text
from zfrec.record.model import AltPlay, Game, Hand, Move, Trick

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


def test_disputed_versions_in_json() -> None:
    game = small_game()
    move = game.hands[0].tricks[0].moves[2]
    move.dispute_note = "was it a pair?"
    move.alternatives = (AltPlay(True), AltPlay(False, parse_cards("Ts Th"), ()))
    data = game_to_json(game)
    assert data["hands"][0]["tricks"][0]["moves"][2] == {
        "seat": 3,
        "play": "Ts Th Td",
        "disputed": True,
        "dispute_note": "was it a pair?",
        "or": ["pass", "Ts Th"],
    }
    assert game_from_json(data) == game
    assert loads(dumps(game, "json"), "json") == [game]
    assert loads(dumps(game), "zfn") == [game]


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
    # the first is Zheng Fen's; the Sheng ji example is tested in test_sj_notation.py
    text = re.findall(r"```json\n(.*?)```", (ROOT / "FORMAT.md").read_text("utf-8"), re.S)[0]
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
            'g.json: at /hands/0/tricks/0/moves/0/play: expected play ("pass", or the cards '
            'played with joker declarations, e.g. "7s 7h BJ=8h" or "8h 8s SJ=8"), got \'7h=8\'',
        ),
        (  # the word at fault in the reader's words, not the whole text alone
            "/hands/0/tricks/0/moves/0/play",
            "7h 7z",
            'g.json: at /hands/0/tricks/0/moves/0/play: expected play ("pass", or the cards '
            'played with joker declarations, e.g. "7s 7h BJ=8h" or "8h 8s SJ=8"), got \'7h 7z\': '
            "unknown suit 'z' in '7z': suits are s h d c (or ♠ ♥ ♦ ♣)",
        ),
        (  # a disputed move's version: said in words, not as the schema's regular expression
            "/hands/0/tricks/0/moves/2/or",
            ["pass", "Qx"],
            'g.json: at /hands/0/tricks/0/moves/2/or/1: expected version ("pass", or the cards '
            "played with joker declarations, as \"play\" is written), got 'Qx': unknown suit "
            "'x' in 'Qx': suits are s h d c (or ♠ ♥ ♦ ♣)",
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
        (
            "/hands/0/tricks/0/moves/1/or",
            ["Kc"],
            "g.json: at /hands/0/tricks/0/moves/1: 'or' versions need the disputed marker",
        ),
        (
            "/hands/0/tricks/0/moves/2/or",
            ["pass", "Th Ts Td"],
            "g.json: at /hands/0/tricks/0/moves/2: the version Ts Th Td is the play as recorded",
        ),
        (
            "/hands/0/tricks/0/moves/2/or",
            ["pass", "Kc Kc"],
            "g.json: at /hands/0/tricks/0/moves/2/or/1: card Kc is given twice",
        ),
        (
            "/hands/0/tricks/0/moves/2/or",
            [],
            "g.json: at /hands/0/tricks/0/moves/2/or: [] should be non-empty",
        ),
        ("/players/2", "Ann", "g.json: at /players: player name 'Ann' is given twice"),
        (
            "/players/2",
            "7",
            "g.json: at /players/2: expected player name (a player's name: no leading",
        ),
        ("/hands/0/colour", "red", "g.json: at /hands/0: Additional properties are not allowed"),
        ("/target", 0, "g.json: at /target: 0 is less than the minimum of 1"),
        (
            "/comments",
            ["a", " b"],
            "g.json: at /comments/1: expected comment (one comment's text, trimmed",
        ),
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


def _reference_layout(value: Any, indent: int = 0) -> str:
    """The canonical layout by its definition: anything that fits in 100 columns on one line."""
    flat = json.dumps(value, ensure_ascii=False)
    if not isinstance(value, dict | list) or not value or indent + len(flat) <= 100:
        return flat
    inner = " " * (indent + 2)
    if isinstance(value, dict):
        items = [
            f"{inner}{json.dumps(k, ensure_ascii=False)}: {_reference_layout(v, indent + 2)}"
            for k, v in value.items()
        ]
        return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"
    items = [inner + _reference_layout(v, indent + 2) for v in value]
    return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"


@settings(max_examples=60, deadline=None)
@given(games())
def test_the_one_pass_writer_lays_out_json_by_the_definition(game: Game) -> None:
    assert dumps_json(game) == _reference_layout(game_to_json(game)) + "\n"
    both = {"games": [game_to_json(game), game_to_json(game)]}
    assert dumps_json([game, game]) == _reference_layout(both) + "\n"


def test_a_long_plain_move_is_laid_out_like_any_other_value() -> None:
    every = parse_cards("3s 3h 3d 3c 4s 4h 4d 4c 5s 5h 5d 5c 6s 6h 6d 6c 7s 7h 7d 7c 8s 8h 8d")
    game = Game(["Ann", "Bo", "Cy"], hands=[Hand(1, tricks=[Trick([Move.plays(0, every)])])])
    assert dumps_json([game]) == _reference_layout({"games": [game_to_json(game)]}) + "\n"


def test_tricks_of_every_length_are_laid_out_by_the_definition() -> None:
    # A trick of plain moves is written from its moves' texts: on one line, with its array of
    # moves on one line, or a move a line, whichever the definition picks at each depth.
    seven = parse_cards("7s")
    tricks = [
        Trick([Move.plays(0, seven)] + [Move.passes(1 + i % 2) for i in range(n)])
        for n in range(25)
    ]
    tricks.append(Trick([Move.plays(0, seven, annotation="!"), Move.passes(1)]))
    game = Game(["Ann", "Bo", "Cy"], hands=[Hand(1, tricks=tricks)])
    assert dumps_json(game) == _reference_layout(game_to_json(game)) + "\n"
    both = {"games": [game_to_json(game)]}
    assert dumps_json([game]) == _reference_layout(both) + "\n"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[Players "a, b, c"]\n[Event "x\x01y"]\n', "at /event: a tag value may not contain"),
        ('[Players "a, b, c"]\n\nhand 1\n1: 3h {odd\x02}\n', "at /hands/0/tricks/0/moves/0/comm"),
    ],
)
def test_writing_json_refuses_free_text_that_json_records_refuse(text: str, message: str) -> None:
    # Whatever the text reader lets through, JSON is never written unless it conforms.
    try:
        [game] = loads(text)
    except NotationError:
        return  # the reader refuses it already: as good
    with pytest.raises(NotationError, match=re.escape(message)):
        dumps(game, "json")


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


def test_plain_moves_read_again_are_equal_and_independent() -> None:
    """A plain move ({seat, play}) read before is taken from the reader's memory: it must equal
    the move read in full, own its comments list, and never let a bad play through."""
    [game] = load(ROOT / "sample_games" / "02-three-players.zfn")
    data = game_to_json(game)
    first, again = game_from_json(copy.deepcopy(data)), game_from_json(copy.deepcopy(data))
    assert first == again == game
    moves = [m for h in again.hands for t in h.tricks for m in t.moves]
    assert len({id(m.comments) for m in moves}) == len(moves)
    moves[0].comments.append("only this move's")
    assert next(m for h in first.hands for t in h.tricks for m in t.moves).comments == []
    # the same seat again, now with a play that cannot stand: the full check still runs
    bad = copy.deepcopy(data)
    bad["hands"][0]["tricks"][0]["moves"][0]["play"] = "SJ=SJ"
    with pytest.raises(NotationError, match=r"hands/0/tricks/0/moves/0"):
        game_from_json(bad)
